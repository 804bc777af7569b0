/**
 * The smallest media the conformance suite accepts, made for it: a 1×1 red PNG and a WAV of eight
 * silent 8-bit samples at 8 kHz. Inline so the fixtures need no files on disk.
 */
export const RED_PIXEL_PNG =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4z8AAAAMBAQDJ/pLvAAAAAElFTkSuQmCC';

export const SILENT_WAV = 'UklGRiwAAABXQVZFZm10IBAAAAABAAEAQB8AAEAfAAABAAgAZGF0YQgAAACAgICAgICAgA==';
