/**
 * A bounded first-in-first-out ring addressed by sequence number: the event log of one SSE
 * stream. Items leave only from the head (oldest first), so while a sequence number is present
 * every later one is present too; resumption relies on that to never skip an event unnoticed.
 */
export class SeqRing<T> {
  readonly capacity: number;
  /** Grows by doubling up to `capacity`: most streams hold two or three events, not thousands. */
  #slots: (T | undefined)[] = [];
  /** Slot of the oldest item. */
  #head = 0;
  #length = 0;
  /** Sequence number of the oldest item (of the next one pushed, when empty). */
  #firstSeq = 0;

  constructor(capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 1) {
      throw new RangeError(`A ring needs a capacity of at least 1, not ${capacity}.`);
    }
    this.capacity = capacity;
  }

  get length(): number {
    return this.#length;
  }

  get full(): boolean {
    return this.#length === this.capacity;
  }

  /** Sequence number of the oldest item still held. */
  get firstSeq(): number {
    return this.#firstSeq;
  }

  /** Sequence number the next pushed item gets. */
  get nextSeq(): number {
    return this.#firstSeq + this.#length;
  }

  /** Appends `item` and returns its sequence number. A full ring must be shifted first. */
  push(item: T): number {
    if (this.full) throw new RangeError('The ring is full: shift the oldest item first.');
    if (this.#length === this.#slots.length) this.#grow();
    this.#slots[(this.#head + this.#length) % this.#slots.length] = item;
    this.#length++;
    return this.#firstSeq + this.#length - 1;
  }

  /** The oldest item, without removing it. */
  peek(): T | undefined {
    return this.#length === 0 ? undefined : this.#slots[this.#head];
  }

  /** Removes and returns the oldest item. */
  shift(): T | undefined {
    if (this.#length === 0) return undefined;
    const item = this.#slots[this.#head];
    this.#slots[this.#head] = undefined;
    this.#head = (this.#head + 1) % this.#slots.length;
    this.#length--;
    this.#firstSeq++;
    return item;
  }

  /** The item with sequence number `seq`, if it is still held. */
  at(seq: number): T | undefined {
    const offset = seq - this.#firstSeq;
    if (!Number.isInteger(offset) || offset < 0 || offset >= this.#length) return undefined;
    return this.#slots[(this.#head + offset) % this.#slots.length];
  }

  #grow(): void {
    const size = Math.min(this.capacity, Math.max(4, this.#slots.length * 2));
    const slots: (T | undefined)[] = new Array(size);
    for (let i = 0; i < this.#length; i++) slots[i] = this.#slots[(this.#head + i) % this.#slots.length];
    this.#slots = slots;
    this.#head = 0;
  }
}
