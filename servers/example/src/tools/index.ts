import { deleteNote } from './delete-note.js';
import { listNotes } from './list-notes.js';
import { readNote } from './read-note.js';
import { searchNotes } from './search-notes.js';
import { summarizeNotes } from './summarize-notes.js';
import { writeNote } from './write-note.js';

/** Every tool of the notes server, in the order `tools/list` shows them. */
export const tools = [listNotes, readNote, searchNotes, summarizeNotes, writeNote, deleteNote];
