export {
  type CursorCodec,
  type CursorCodecOptions,
  type CursorPosition,
  createCursorCodec,
  type JsonValue,
  MAX_CURSOR_LENGTH,
  type PositionGuard,
} from './cursor-codec.js';
export { INVALID_CURSOR_MESSAGE, invalidCursorError } from './invalid-cursor.js';
export {
  installListPagination,
  LIST_METHODS,
  type ListMethod,
  type ListPaginationOptions,
  pagesItself,
} from './list-pagination.js';
export { assertPageSize } from './page-size.js';
export { type ArrayPosition, type Page, type PaginateArrayOptions, paginateArray } from './paginate-array.js';
export {
  type PageSource,
  type PaginateSourceOptions,
  paginateSource,
  type SourceItem,
} from './paginate-source.js';
