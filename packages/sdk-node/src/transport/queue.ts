// A bounded FIFO that makes room by dropping its oldest item: a host app that outruns
// Sightline (or outlives an outage) keeps a fixed amount of memory and the newest records.

export class BoundedQueue<T> {
  private readonly items: (T | undefined)[];
  private head = 0;
  private size = 0;

  constructor(readonly capacity: number) {
    this.items = new Array<T | undefined>(capacity);
  }

  get length(): number {
    return this.size;
  }

  /** Appends `item`; returns true when the oldest item was dropped to make room. */
  push(item: T): boolean {
    const tail = (this.head + this.size) % this.capacity;
    this.items[tail] = item;
    if (this.size < this.capacity) {
      this.size += 1;
      return false;
    }
    this.head = (this.head + 1) % this.capacity;
    return true;
  }

  /** Removes and returns up to `count` of the oldest items. */
  take(count: number): T[] {
    const n = Math.min(count, this.size);
    const out = new Array<T>(n);
    for (let i = 0; i < n; i += 1) {
      const index = (this.head + i) % this.capacity;
      out[i] = this.items[index] as T;
      this.items[index] = undefined;
    }
    this.head = (this.head + n) % this.capacity;
    this.size -= n;
    return out;
  }
}
