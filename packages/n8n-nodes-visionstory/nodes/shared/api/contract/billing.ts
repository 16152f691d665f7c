import { z } from 'zod/v3';

import { dto } from './common';
import { num } from './lenient';

/** The credits response shape is not public; every field is optional and unknown ones are kept. */
export const CreditsDto = dto({ credits: num() });
export type CreditsDto = z.infer<typeof CreditsDto>;
