import { describeServer } from '../src/matrix.js';
import { filesystemServer } from '../src/servers/filesystem.js';

describeServer(filesystemServer);
