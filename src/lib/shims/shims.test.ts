import { describe, expect, it } from 'vitest';
import realDestr from 'destr';
import * as ufo from 'ufo';
import destr from './destr';
import { fromEvent } from './file-selector';
import { withBase, withQuery } from './ufo';

describe('ufo shim', () => {
  it('gives ufo’s withQuery results', () => {
    const cases: [string, Record<string, unknown>][] = [
      ['/api/v1/orders', { event: 'market-online' }],
      ['/api/v1/orders?limit=10', { limit: 100, cursor: 'a b+c/d&e#f=g' }],
      ['/api/v1/works?x=1&x=2#top', { y: true, z: 0, e: '', u: undefined, n: null }],
      ['/p?a=%E4%B8%AD+x', { list: ['1', '中 文'], obj: { a: 1 } }],
      ['https://example.com/a?b=c', { d: 'e|f^g`h' }],
      ['/p?__proto__=x&q', {}],
    ];
    for (const [input, query] of cases) expect(withQuery(input, query)).toBe(ufo.withQuery(input, query as never));
  });
  it('gives ufo’s withBase results', () => {
    for (const [input, base] of [
      ['/api/v1/orders', ''],
      ['/api/v1/orders', '/'],
      ['/api/v1/orders', 'http://api.test/base/'],
      ['api/v1', 'http://api.test/base'],
      ['/base/x', '/base'],
      ['/basement', '/base'],
      ['', '/base/'],
      ['https://other.test/x', '/base'],
    ] as const)
      expect(withBase(input, base)).toBe(ufo.withBase(input, base));
  });
});

describe('destr shim', () => {
  it('parses JSON like destr and keeps other text', () => {
    for (const text of ['{"a":1,"b":[true,null]}', '[1,2]', '"x"', '42', 'not json', '', '{"a":'])
      expect(destr(text)).toEqual(realDestr(text));
  });
  it('drops __proto__ keys', () => {
    const out = destr('{"__proto__":{"polluted":1},"a":{"constructor":{"prototype":{}}}}') as Record<string, unknown>;
    expect(Object.keys(out)).toEqual(['a']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.keys(out.a as object)).toEqual([]);
  });
});

describe('file-selector shim', () => {
  const file = (name: string, type = '') => new File(['x'], name, { type });
  it('gives an input’s files with their path, typed from the extension when untyped', async () => {
    const [a, b] = (await fromEvent({
      type: 'change',
      target: { files: [file('logo.AI'), file('p.png', 'image/png')] },
    })) as (File & { path: string })[];
    expect(a!.path).toBe('./logo.AI');
    expect(a!.type).toBe('application/postscript');
    expect(b!.type).toBe('image/png');
  });
  it('gives a drop’s files and a drag’s file items', async () => {
    const dropped = file('photo.jpg');
    const items = [
      { kind: 'file', type: 'image/jpeg' },
      { kind: 'string', type: 'text/plain' },
    ];
    expect(await fromEvent({ type: 'drop', dataTransfer: { files: [dropped], items } })).toEqual([dropped]);
    expect(await fromEvent({ type: 'dragenter', dataTransfer: { files: [], items } })).toEqual([items[0]]);
    expect(await fromEvent({ type: 'paste', clipboardData: { files: [dropped] } })).toEqual([dropped]);
    expect(await fromEvent([{ getFile: async () => dropped }])).toEqual([dropped]);
  });
});
