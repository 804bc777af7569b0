export {
  type CursorCodec,
  type CursorCodecOptions,
  type CursorPosition,
  createCursorCodec,
  type JsonValue,
  MAX_CURSOR_LENGTH,
  type PositionGuard,
} from './cursorCodec.js';
export { INVALID_CURSOR_MESSAGE, invalidCursorError } from './invalidCursor.js';
export {
  installListPagination,
  LIST_METHODS,
  type ListMethod,
  type ListPaginationOptions,
  pagesItself,
} from './listPagination.js';
export { assertPageSize } from './pageSize.js';
export { type ArrayPosition, type Page, type PaginateArrayOptions, paginateArray } from './paginateArray.js';
export {
  type PageSource,
  type PaginateSourceOptions,
  paginateSource,
  type SourceItem,
} from './paginateSource.js';
