/** The hash of no bytes: FNV-1a's offset basis. */
export const EMPTY_HASH = 0x811c9dc5;

/** The running hash with one more byte (FNV-1a). */
export function hashStep(hash: number, byte: number): number {
  return Math.imul(hash ^ byte, 0x01000193);
}

/** The table hash of a running hash: a final avalanche so that the low bits (the table slot) depend on every byte. */
export function finishHash(hash: number): number {
  let mixed = hash ^ (hash >>> 16);
  mixed = Math.imul(mixed, 0x85ebca6b);
  mixed ^= mixed >>> 13;
  return mixed | 0;
}

/** FNV-1a over the bytes, finished by finishHash. */
export function hashBytes(bytes: Uint8Array, start: number, end: number): number {
  let hash = EMPTY_HASH;
  for (let i = start; i < end; i++) hash = hashStep(hash, bytes[i]!);
  return finishHash(hash);
}

/** A slot of the hash table holds id + 1; 0 marks an empty slot. */
const EMPTY = 0;

/**
 * Interns byte strings (a TREC file's qids) as dense ids 0, 1, 2, … without making a JS string per lookup: the
 * bytes of every distinct string are stored once, end to end, in one arena, and an open-addressing hash table
 * (linear probing, at most half full) maps them to their ids.
 */
export class ByteDictionary {
  private slots: Int32Array = new Int32Array(1 << 12);
  /** Per id: the hash of its bytes (to rehash, and to reject most other strings without comparing bytes). */
  private hashes: Int32Array = new Int32Array(1 << 11);
  /** Per id: where its bytes start in the arena; `offsets[id + 1]` is where they end. */
  private offsets: Int32Array = new Int32Array((1 << 11) + 1);
  private arena: Buffer = Buffer.allocUnsafe(1 << 16);
  private count = 0;

  /** How many distinct strings were interned; ids run from 0 to size − 1. */
  get size(): number {
    return this.count;
  }

  /** The id of the bytes [start, end), adding them if they are new. */
  intern(bytes: Uint8Array, start: number, end: number): number {
    const hash = hashBytes(bytes, start, end);
    const mask = this.slots.length - 1;
    for (let slot = hash & mask; ; slot = (slot + 1) & mask) {
      const entry = this.slots[slot]!;
      if (entry === EMPTY) return this.add(bytes, start, end, hash, slot);
      const id = entry - 1;
      if (this.hashes[id] === hash && this.equals(id, bytes, start, end)) return id;
    }
  }

  /** Whether id's string is the bytes [start, end). */
  equals(id: number, bytes: Uint8Array, start: number, end: number): boolean {
    const { arena } = this;
    const offset = this.offsets[id]!;
    if (this.offsets[id + 1]! - offset !== end - start) return false;
    for (let i = start, j = offset; i < end; i++, j++) if (arena[j] !== bytes[i]) return false;
    return true;
  }

  private add(bytes: Uint8Array, start: number, end: number, hash: number, slot: number): number {
    const id = this.count++;
    if (id === this.hashes.length) this.growIds();
    const offset = this.offsets[id]!;
    const length = end - start;
    if (offset + length > this.arena.length) this.growArena(offset + length);
    this.arena.set(bytes.subarray(start, end), offset);
    this.offsets[id + 1] = offset + length;
    this.hashes[id] = hash;
    this.slots[slot] = id + 1;
    if (this.count * 2 > this.slots.length) this.rehash();
    return id;
  }

  private growIds(): void {
    const hashes = new Int32Array(this.hashes.length * 2);
    hashes.set(this.hashes);
    this.hashes = hashes;
    const offsets = new Int32Array(hashes.length + 1);
    offsets.set(this.offsets);
    this.offsets = offsets;
  }

  private growArena(needed: number): void {
    const arena = Buffer.allocUnsafe(Math.max(needed, this.arena.length * 2));
    this.arena.copy(arena, 0, 0, this.offsets[this.count - 1]!);
    this.arena = arena;
  }

  /** Doubles the table and puts every id back in its slot. */
  private rehash(): void {
    const slots = new Int32Array(this.slots.length * 2);
    const mask = slots.length - 1;
    for (let id = 0; id < this.count; id++) {
      let slot = this.hashes[id]! & mask;
      while (slots[slot] !== EMPTY) slot = (slot + 1) & mask;
      slots[slot] = id + 1;
    }
    this.slots = slots;
  }
}
