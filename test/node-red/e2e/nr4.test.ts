import { NODE_RED_LINES } from '../../../scripts/node-red/versions';
import { describeLine } from './realNodeRed';

describeLine(NODE_RED_LINES.nr4);
