import { describe, expect, it } from 'vitest';
import { withoutPassword } from '../src/index.js';

describe('withoutPassword', () => {
  it('shows the password of a URL as ***, and leaves the rest as it was', () => {
    expect(withoutPassword('http://alice:s3cret@intranet.test:8080/a?b=1#c')).toBe(
      'http://alice:***@intranet.test:8080/a?b=1#c',
    );
    expect(withoutPassword('https://alice@intranet.test/')).toBe('https://alice@intranet.test/');
    expect(withoutPassword('https://social.test/@alice:post')).toBe('https://social.test/@alice:post');
    expect(withoutPassword('about:blank')).toBe('about:blank');
    expect(withoutPassword('not a url @ all')).toBe('not a url @ all');
  });
});
