/** An item waiting in a {@link DelayHeap}; `index` is its slot, kept current by the heap. */
export interface Delayed {
  key: string;
  readyAt: number;
  index: number;
}

/**
 * A binary min-heap of delayed keys ordered by `readyAt`, with O(log n) decrease-key so an
 * earlier `addAfter` for a waiting key moves it forward instead of adding a second entry.
 */
export interface DelayHeap {
  readonly size: number;
  peek(): Delayed | undefined;
  pop(): Delayed | undefined;
  push(item: Delayed): void;
  /** Restores order after `item.readyAt` was lowered. */
  moveUp(item: Delayed): void;
  clear(): void;
}

export function createDelayHeap(): DelayHeap {
  const items: Delayed[] = [];

  const swap = (a: number, b: number): void => {
    const x = items[a]!;
    const y = items[b]!;
    items[a] = y;
    items[b] = x;
    y.index = a;
    x.index = b;
  };

  const up = (i: number): void => {
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (items[parent]!.readyAt <= items[i]!.readyAt) return;
      swap(i, parent);
      i = parent;
    }
  };

  const down = (i: number): void => {
    for (;;) {
      const left = 2 * i + 1;
      const right = left + 1;
      let smallest = i;
      if (left < items.length && items[left]!.readyAt < items[smallest]!.readyAt) smallest = left;
      if (right < items.length && items[right]!.readyAt < items[smallest]!.readyAt) smallest = right;
      if (smallest === i) return;
      swap(i, smallest);
      i = smallest;
    }
  };

  return {
    get size() {
      return items.length;
    },
    peek: () => items[0],
    pop() {
      const top = items[0];
      if (!top) return undefined;
      const last = items.pop()!;
      if (items.length > 0) {
        items[0] = last;
        last.index = 0;
        down(0);
      }
      top.index = -1;
      return top;
    },
    push(item) {
      item.index = items.length;
      items.push(item);
      up(item.index);
    },
    moveUp(item) {
      up(item.index);
    },
    clear() {
      items.length = 0;
    },
  };
}
