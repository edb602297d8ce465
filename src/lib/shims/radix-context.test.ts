import { describe, expect, it } from 'vitest';
import { createElement, type ReactNode } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { createContextScope as radixScope } from '@radix-ui/react-context';
import { createContextScope as shimScope } from './radix-context';

/** What a consumer reads under a provider (or none), with Radix's scope and with the shim. */
type Scope = (name: string) => readonly [(root: string, defaultValue?: object) => readonly unknown[], unknown];

function read(create: Scope, withProvider: boolean, defaultValue?: { open: boolean }) {
  const [createContext] = create('Dialog');
  const [Provider, useCtx] = createContext('Dialog', defaultValue) as [
    (props: { open: boolean; children: ReactNode }) => ReactNode,
    (consumerName: string, scope?: unknown) => unknown,
  ];
  const Consumer = () => {
    let text: string;
    try {
      text = JSON.stringify(useCtx('DialogContent', undefined) ?? null);
    } catch (error) {
      text = (error as Error).message;
    }
    return createElement('p', null, text);
  };
  const consumer = createElement(Consumer);
  return renderToStaticMarkup(withProvider ? createElement(Provider, { open: true, children: consumer }) : consumer);
}

describe('Radix context shim', () => {
  it('answers the nearest provider’s props, the default, or Radix’s error, as Radix does', () => {
    for (const [withProvider, defaultValue] of [
      [true, undefined],
      [false, { open: false }],
      [false, undefined],
    ] as const) {
      expect(read(shimScope, withProvider, defaultValue)).toBe(read(radixScope, withProvider, defaultValue));
    }
    expect(read(shimScope, true)).toContain('{&quot;open&quot;:true}');
    expect(read(shimScope, false)).toContain('`DialogContent` must be used within `Dialog`');
  });

  it('keeps the scope hook’s shape (an object of props to spread)', () => {
    const [, createScope] = shimScope('Dialog');
    expect(createScope.scopeName).toBe('Dialog');
    expect(createScope()()).toEqual({});
  });
});
