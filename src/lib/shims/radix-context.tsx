import { createContext, useContext, useMemo, type ReactNode } from 'react';

/*
 * Radix's `createContextScope`, for the client build only (astro.config.mjs `clientShims`;
 * decision 070): Radix Dialog's one caller. Each context is a plain React context whose provider
 * passes its props (memoised on their values, as Radix does) and whose hook answers the nearest
 * provider's value, the default, or throws the same error. Left out: scopes, which only matter
 * when another Radix primitive is built on Dialog and nests it (`@radix-ui/react-alert-dialog`),
 * not installed here; the scope hook answers an empty object and a `scope` argument is ignored.
 * radix-context.test.tsx checks it against Radix's.
 */

type Scope = unknown;

export function createContextScope(scopeName: string) {
  function createScopedContext<C extends object | null>(rootComponentName: string, defaultContext?: C) {
    const Context = createContext<C | undefined>(defaultContext);
    function Provider(props: C & { scope?: Scope; children: ReactNode }) {
      const { scope: _scope, children, ...context } = props;
      // eslint-disable-next-line react-hooks/exhaustive-deps -- Radix's rule: the props' values
      const value = useMemo(() => context as C, Object.values(context));
      return <Context.Provider value={value}>{children}</Context.Provider>;
    }
    function useScopedContext(consumerName: string, _scope?: Scope, options: { optional?: boolean } = {}) {
      const context = useContext(Context);
      if (context) return context;
      if (defaultContext !== undefined) return defaultContext;
      if (options.optional) return undefined;
      throw new Error(`\`${consumerName}\` must be used within \`${rootComponentName}\``);
    }
    return [Provider, useScopedContext] as const;
  }
  const createScope = Object.assign(() => () => ({}), { scopeName });
  return [createScopedContext, createScope] as const;
}
