import { N8N_LINES } from '../../../scripts/n8n/versions';
import { describeQueueMode } from './queueMode';

describeQueueMode(N8N_LINES.n8n2);
