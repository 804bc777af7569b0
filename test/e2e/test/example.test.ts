import { describeServer } from '../src/matrix.js';
import { exampleServer } from '../src/servers/example.js';

describeServer(exampleServer);
