import { describe, expect, it } from 'vitest';
import { isAllowedAddress, parseIpRule } from './ip-allow-list.js';

describe('IP allow-list rules', () => {
  it.each([
    ['203.0.113.7', '203.0.113.7/32'],
    ['10.0.0.0/8', '10.0.0.0/8'],
    [' 2001:DB8::/32 ', '2001:db8::/32'],
    ['::1', '::1/128'],
    ['::ffff:127.0.0.2', '127.0.0.2/32'],
    ['0.0.0.0/0', '0.0.0.0/0'],
  ])('reads %s as %s', (text, canonical) => {
    expect(parseIpRule(text)).toBe(canonical);
  });

  it.each(['', 'localhost', '10.0.0.0/33', '2001:db8::/129', '10.0.0.1/8/8', '10.0.0.1/x', '300.1.1.1', '10.0.0.1/-1'])(
    'refuses %j',
    (text) => {
      expect(parseIpRule(text)).toBeUndefined();
    },
  );

  it('allows everyone when the list is empty, and only listed addresses otherwise', () => {
    expect(isAllowedAddress([], '198.51.100.1')).toBe(true);
    const rules = ['127.0.0.2/32', '10.0.0.0/8', '2001:db8::/32'];
    expect(isAllowedAddress(rules, '127.0.0.2')).toBe(true);
    expect(isAllowedAddress(rules, '::ffff:127.0.0.2')).toBe(true);
    expect(isAllowedAddress(rules, '127.0.0.3')).toBe(false);
    expect(isAllowedAddress(rules, '10.200.3.4')).toBe(true);
    expect(isAllowedAddress(rules, '11.0.0.1')).toBe(false);
    expect(isAllowedAddress(rules, '2001:db8:1::5')).toBe(true);
    expect(isAllowedAddress(rules, '2001:db9::5')).toBe(false);
    expect(isAllowedAddress(rules, 'not an address')).toBe(false);
  });
});
