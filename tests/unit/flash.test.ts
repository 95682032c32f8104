// What a form posted without JavaScript leaves on the server for the next page: bounded
// whatever is posted.
import { describe, expect, it } from 'vitest';
import { putFlash, takeFlash } from '#server/http/flash.ts';
import { typedValues } from '#server/http/form-post.ts';

describe('what was typed, kept to fill a form again', () => {
  it('keeps a long comment whole, but not a flood of made-up fields or a huge value', () => {
    const comment = 'c'.repeat(5_000);
    expect(typedValues({ authorName: 'Ada', content: comment, password: 'secret-pass', website: 'spam' })).toEqual({ authorName: 'Ada', content: comment });
    const flood = Object.fromEntries(Array.from({ length: 500 }, (_, i) => [`x${i}`, 'y'.repeat(100)]));
    expect(Object.keys(typedValues(flood)).length).toBeLessThanOrEqual(40);
    const huge = typedValues({ x: 'A'.repeat(65_000) });
    expect(huge.x.length).toBeLessThanOrEqual(10_000);
  });
});

describe('the flash store', () => {
  it('drops the oldest flashes once the kept text passes its bound, and the newest still reads', () => {
    const big = (i: number) => ({ form: 'f', kind: 'error' as const, message: `m${i}`, values: { content: 'A'.repeat(60_000) } });
    const tokens = Array.from({ length: 600 }, (_, i) => putFlash(big(i)));
    expect(takeFlash(tokens[0])).toBeNull();
    expect(takeFlash(tokens[599])?.message).toBe('m599');
  });
});
