import { N8N_LINES } from '../../scripts/n8n/versions';
import { describeEditor } from './editorSuite';

describeEditor(N8N_LINES.n8n2);
