export { type AskOptions, ask, type ConfirmOptions, confirm } from './confirm.js';
