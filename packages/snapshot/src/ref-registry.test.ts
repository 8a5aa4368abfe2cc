import { describe, expect, it } from 'vitest';
import { RefRegistry } from './ref-registry.js';

describe('RefRegistry numbering', () => {
  it('a tab of a relaunched browser starts above the old numbers: old refs read as issued (stale), never reused', () => {
    let next = 1;
    const allocate = () => next++;
    const before = new RefRegistry({ allocate });
    expect(before.refFor('main', true, 't', 1, 1, 'a')).toBe('e1');
    expect(before.refFor('main', true, 't', 2, 1, 'b')).toBe('e2');
    expect(next).toBe(3);
    const after = new RefRegistry({ first: next, allocate });
    expect(after.issued('e2')).toBe(true);
    expect(after.get('e2')).toBeUndefined();
    expect(after.refFor('main', true, 'u', 1, 1, 'c')).toBe('e3');
    expect(after.issued('e4')).toBe(false);
  });

  it('tabs sharing one counter never mint the same ref, and each knows only its own', () => {
    let next = 1;
    const allocate = () => next++;
    const one = new RefRegistry({ allocate, issuedElsewhere: (ref) => (two.issued(ref) ? 'two' : undefined) });
    const two = new RefRegistry({ allocate });
    expect(one.refFor('main', true, 't', 1, 1, 'a')).toBe('e1');
    expect(two.refFor('main', true, 'u', 1, 1, 'b')).toBe('e2');
    expect(two.refFor('child', false, 'v', 1, 1, 'c')).toBe('f1e3');
    expect(one.refFor('main', true, 't', 2, 1, 'd')).toBe('e4');
    expect(one.issued('e2')).toBe(false);
    expect(one.issued('f1e3')).toBe(false);
    expect(one.issuedElsewhere('e2')).toBe('two');
    expect(two.issued('e1')).toBe(false);
    expect(two.issued('e4')).toBe(false);
  });

  it('a ref is issued only with the frame prefix it was minted with', () => {
    const refs = new RefRegistry();
    expect(refs.refFor('main', true, 't', 1, 1, 'a')).toBe('e1');
    expect(refs.refFor('child', false, 'u', 1, 1, 'b')).toBe('f1e2');
    refs.retireBefore(2);
    expect(refs.issued('e1')).toBe(true);
    expect(refs.issued('f1e2')).toBe(true);
    for (const ref of ['f1e1', 'e2', 'f2e2', 'f9e1', 'e3']) expect(refs.issued(ref), ref).toBe(false);
  });

  it('starts at e1 by default', () => {
    const refs = new RefRegistry();
    expect(refs.issued('e1')).toBe(false);
    expect(refs.refFor('main', true, 't', 7, 1, 'x')).toBe('e1');
  });

  it('remembers a bounded number of old refs: an older one reads as forgotten (stale), never as unknown', () => {
    const refs = new RefRegistry();
    // 300 documents of 10 refs each, as a long session navigating one tab mints them
    for (let epoch = 1; epoch <= 300; epoch++) {
      for (let id = 1; id <= 10; id++) refs.refFor('main', true, `doc${epoch}`, id, epoch, 'x');
      refs.retireBefore(epoch);
    }
    // before, every ref ever minted was remembered: 3,000 here, growing with the session
    expect(refs.remembered).toBeLessThanOrEqual(512);
    expect(refs.issued('e2999')).toBe(true);
    expect(refs.issued('e1')).toBe(false);
    expect(refs.forgotten('e1')).toBe(true);
    expect(refs.forgotten('f3e1')).toBe(true);
    // numbers still remembered keep their frame prefix; numbers never reached are not forgotten
    expect(refs.forgotten('f1e2999')).toBe(false);
    expect(refs.issued('f1e2999')).toBe(false);
    expect(refs.forgotten('e3001')).toBe(false);
  });
});
