import { useEffect, useRef } from 'react';

/**
 * A full event's registration (issue 19): said when the wizard opens, and after the spec's "event
 * is full" alert in place of the form, with the way on: the portal's own open registrations and
 * the conference home. Rendered by the page alone (static HTML) or by a wizard island.
 */
export function FullyBooked(props: {
  heading: string;
  note: string;
  /** The home page's list of open registrations, and its label. */
  registrationsHref: string;
  registrations: string;
  conferenceHref: string;
  conference: string;
  /** Move the focus to the heading when shown (in place of a form the user was on). */
  focus?: boolean;
}) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (!props.focus) return;
    // After the alert that led here has given the focus back (Radix does so in a timeout).
    const timer = setTimeout(() => heading.current?.focus(), 0);
    return () => clearTimeout(timer);
  }, [props.focus]);
  return (
    <section className="card space-y-3" aria-labelledby="fully-booked">
      <h2 id="fully-booked" ref={heading} tabIndex={-1} className="text-lg font-semibold">
        {props.heading}
      </h2>
      <p>{props.note}</p>
      <div className="flex flex-wrap gap-3">
        <a className="btn-primary" href={props.registrationsHref}>
          {props.registrations}
        </a>
        <a className="btn-secondary" href={props.conferenceHref}>
          {props.conference}
        </a>
      </div>
    </section>
  );
}
