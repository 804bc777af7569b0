export { type ConnectOptions, connect, type TestSession, type TestTransport } from './connect.js';
export { listAll } from './list-all.js';
export { type SamplingResponder, type ScriptedModelOptions, scriptedModel } from './model.js';
export { type Notification, NotificationLog } from './notifications.js';
