// The time limits on a step's merge tags: strict when the step is saved, generous when it is sent,
// so a template that passed never fails a message because the server was busy at that moment.
import { describe, expect, it } from 'vitest';
import { checkMerge, parseMerge, renderMerge } from '#server/sequences/liquid.ts';

// A loop that takes far longer than the save limit (50 ms) and far less than the sending one (2 s).
const SLOW = '<p>{% for i in (1..400000) %}{% endfor %}Hi {{ subscriber.first_name }}</p>';

describe('merge tags that take long to render', () => {
  it('are refused when the step is saved, with the reason', () => {
    expect(() => checkMerge(SLOW, true, 'content')).toThrow(/could not be used: template render limit exceeded/);
  });

  it('a render that takes longer than the save limit still makes the message at sending', () => {
    expect(renderMerge(parseMerge(SLOW, true, 'content'), { email: 'ada@example.com', name: 'Ada Lovelace' })).toBe('<p>Hi Ada</p>');
  });
});
