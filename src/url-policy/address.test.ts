import { describe, expect, it } from 'vitest';
import {
  classifyAddress,
  inRange,
  isLoopbackEndpoint,
  parseIp,
  parseRange,
  type AddressClass,
} from './address.js';

// Pure classification: no traffic is sent anywhere. The addresses below are only parsed.
const classOf = (host: string): AddressClass | undefined => {
  const ip = parseIp(host);
  return ip ? classifyAddress(ip) : undefined;
};

describe('parseIp', () => {
  it('reduces every IPv4 spelling a URL accepts to one dotted address', () => {
    for (const form of [
      '127.0.0.1',
      '2130706433',
      '0x7f000001',
      '0x7F.0.0.1',
      '0177.0.0.1',
      '0177.0.0.01',
      '127.1',
      '127.0.1',
      '[::ffff:127.0.0.1]',
    ]) {
      const ip = parseIp(form);
      expect(ip, form).toBeDefined();
      expect(classifyAddress(ip!), form).toBe('loopback');
    }
    expect(parseIp('2130706433')?.text).toBe('127.0.0.1');
    expect(parseIp('0xa9fea9fe')?.text).toBe('169.254.169.254');
    // As in Chromium, a bare "0x" is the number 0.
    expect(parseIp('0x')?.text).toBe('0.0.0.0');
  });

  it('parses IPv6 with compression, embedded IPv4 and brackets', () => {
    expect(parseIp('[::1]')?.text).toBe('0:0:0:0:0:0:0:1');
    expect(parseIp('::ffff:7f00:1')?.bytes.slice(12)).toEqual(Uint8Array.from([127, 0, 0, 1]));
    expect(classifyAddress(parseIp('fe80::1%eth0')!)).toBe('linkLocal');
    expect(parseIp('1:2:3:4:5:6:7:8:9')).toBeUndefined();
  });

  it('returns undefined for host names and garbage', () => {
    for (const host of ['example.com', 'localhost', '', 'x', '127.0.0.1.example', '1.2.3.4.5', 'ff::gg'])
      expect(parseIp(host), host).toBeUndefined();
  });
});

describe('classifyAddress', () => {
  const table: Array<[string, AddressClass]> = [
    ['127.0.0.2', 'loopback'],
    ['127.255.255.255', 'loopback'],
    ['::1', 'loopback'],
    ['0.0.0.0', 'unspecified'],
    ['0', 'unspecified'],
    ['::', 'unspecified'],
    ['10.0.0.1', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['100.64.0.1', 'private'],
    ['198.18.0.1', 'private'],
    ['fc00::1', 'private'],
    ['fd12:3456::1', 'private'],
    ['fec0::1', 'private'],
    ['169.254.0.1', 'linkLocal'],
    ['fe80::1', 'linkLocal'],
    ['febf::1', 'linkLocal'],
    ['169.254.169.254', 'metadata'],
    ['100.100.100.200', 'metadata'],
    ['fd00:ec2::254', 'metadata'],
    ['224.0.0.1', 'reserved'],
    ['255.255.255.255', 'reserved'],
    ['240.0.0.1', 'reserved'],
    ['192.0.2.1', 'reserved'],
    ['ff02::1', 'reserved'],
    ['2001:db8::1', 'reserved'],
    ['8.8.8.8', 'public'],
    ['172.32.0.1', 'public'],
    ['100.128.0.1', 'public'],
    ['2606:4700::1', 'public'],
  ];
  it.each(table)('%s is %s', (host, expected) => {
    expect(classOf(host)).toBe(expected);
  });

  it('classifies an IPv6 address by the IPv4 address it carries', () => {
    expect(classOf('::ffff:169.254.169.254')).toBe('metadata');
    expect(classOf('::ffff:a9fe:a9fe')).toBe('metadata');
    expect(classOf('::ffff:10.1.2.3')).toBe('private');
    expect(classOf('::127.0.0.1')).toBe('loopback');
    expect(classOf('64:ff9b::a9fe:a9fe')).toBe('metadata');
    expect(classOf('2002:a9fe:a9fe::1')).toBe('metadata');
    expect(classOf('2002:0808:0808::1')).toBe('public');
    expect(classOf('::ffff:8.8.8.8')).toBe('public');
  });

  it('decimal, hex and octal spellings of the metadata address are still metadata', () => {
    for (const form of ['2852039166', '0xa9fea9fe', '0251.0376.0251.0376', '169.254.43518'])
      expect(classOf(form), form).toBe('metadata');
  });
});

describe('ranges', () => {
  it('matches CIDR ranges, IPv4-mapped addresses included', () => {
    const range = parseRange('127.0.0.2/32')!;
    expect(inRange(parseIp('127.0.0.2')!, range)).toBe(true);
    expect(inRange(parseIp('2130706434')!, range)).toBe(true);
    expect(inRange(parseIp('::ffff:127.0.0.2')!, range)).toBe(true);
    expect(inRange(parseIp('127.0.0.1')!, range)).toBe(false);
    const v6 = parseRange('fd00::/8')!;
    expect(inRange(parseIp('fd12::1')!, v6)).toBe(true);
    expect(inRange(parseIp('fe12::1')!, v6)).toBe(false);
  });

  it('refuses malformed ranges', () => {
    for (const bad of ['', '127.0.0.1/33', '::/129', 'example.com/8', '10.0.0.0/x', '10.0.0.0/-1'])
      expect(parseRange(bad), bad).toBeUndefined();
  });
});

describe('isLoopbackEndpoint', () => {
  it('is true for localhost, 127.0.0.0/8 and ::1 endpoints only', () => {
    for (const endpoint of [
      'http://127.0.0.1:9222',
      'ws://127.8.9.10:1/devtools/browser/x',
      'http://localhost:9222',
      'http://LOCALHOST:9222',
      'ws://[::1]:9222/devtools/browser/x',
      'http://[::ffff:127.0.0.1]:9222',
    ])
      expect(isLoopbackEndpoint(endpoint), endpoint).toBe(true);
    for (const endpoint of [
      'http://10.0.0.5:9222',
      'http://browsers.example:9222',
      'wss://localhost.example/x',
      'http://0.0.0.0:9222',
      'not a url',
      '',
    ])
      expect(isLoopbackEndpoint(endpoint), endpoint).toBe(false);
  });
});
