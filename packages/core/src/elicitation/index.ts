export { type AskOptions, type ConfirmOptions, ask, confirm } from './confirm.js';
