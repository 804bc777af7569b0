/**
 * Pagination: core pages every list method on its own; a tool that returns many items pages them
 * with these, behind opaque, tamper-evident cursors (`call.app.cursors`).
 */
export {
  argumentsKey,
  type BoundPosition,
  decodeBoundCursor,
  encodeBoundCursor,
} from './bound-cursor.js';
export {
  type CursorCodec,
  type CursorCodecOptions,
  type CursorPosition,
  createCursorCodec,
  type JsonValue,
  type PositionGuard,
} from './cursor-codec.js';
export { INVALID_CURSOR_MESSAGE } from './invalid-cursor.js';
export { type ArrayPosition, type Page, type PaginateArrayOptions, paginateArray } from './paginate-array.js';
export {
  type PageSource,
  type PaginateSourceOptions,
  paginateSource,
  type SourceItem,
} from './paginate-source.js';
