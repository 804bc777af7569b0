export { type ConnectOptions, type TestSession, type TestTransport, connect } from './connect.js';
export { type SamplingResponder, type ScriptedModelOptions, scriptedModel } from './model.js';
export { type Notification, NotificationLog } from './notifications.js';
