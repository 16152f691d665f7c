import { z } from 'zod/v3';

import { dto } from './common';

/** The credits response shape is not public; every field is optional and unknown ones are kept. */
export const CreditsDto = dto({ credits: z.number().nullish() });
export type CreditsDto = z.infer<typeof CreditsDto>;
