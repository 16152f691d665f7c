import { N8N_LINES } from '../../scripts/n8n/versions';
import { describeRealN8n } from './realN8n';

describeRealN8n(N8N_LINES.n8n1);
