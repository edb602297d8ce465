import type { ReactNode } from 'react';

/**
 * An island's section named by its heading (the section is labelled by the heading's id), the
 * React twin of `components/Section.astro`: the id is written once, so the tie between section
 * and heading cannot drift. `large` names a part of a screen (the larger heading); the default
 * heading is a card's.
 */
export function Section(props: {
  /** The heading's id (unique in the page). */
  id: string;
  heading: ReactNode;
  large?: boolean;
  className?: string;
  children?: ReactNode;
}) {
  return (
    <section aria-labelledby={props.id} className={props.className}>
      <h2 id={props.id} className={props.large ? 'text-xl font-semibold' : 'text-lg font-semibold'}>
        {props.heading}
      </h2>
      {props.children}
    </section>
  );
}
