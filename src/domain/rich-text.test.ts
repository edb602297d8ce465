import { describe, expect, it } from 'vitest';
import { plainText, richText } from './rich-text';

describe('event descriptions', () => {
  it('splits paragraphs on blank lines and keeps line breaks inside one as text', () => {
    expect(richText('One.\nStill one.\n\n\r\nTwo.')).toEqual([[{ text: 'One.\nStill one.' }], [{ text: 'Two.' }]]);
    expect(richText('   \n\n  ')).toEqual([]);
  });

  it('reads [text](https://…) and bare addresses as links, a trailing full stop outside', () => {
    expect(richText('See [the programme](https://tccf.example/p?a=1) or https://tccf.example/faq.')).toEqual([
      [
        { text: 'See ' },
        { text: 'the programme', href: 'https://tccf.example/p?a=1' },
        { text: ' or ' },
        { text: 'https://tccf.example/faq', href: 'https://tccf.example/faq' },
        { text: '.' },
      ],
    ]);
  });

  it('never makes a link of another scheme, and leaves markup as text', () => {
    expect(richText('[x](javascript:alert(1)) <b>bold</b>')).toEqual([
      [{ text: '[x](javascript:alert(1)) <b>bold</b>' }],
    ]);
  });

  it('gives one line of plain text', () => {
    expect(plainText('Talks.\n\nSee [the programme](https://tccf.example/p).')).toBe('Talks. See the programme.');
  });
});
