import type { ReactNode, Ref } from 'react';
import { SignInPrompt } from '@components/ui/SignInPrompt';
import type { T } from '@i18n/t';

/*
 * The pieces every wizard view is made of (issue 19: one wizard skeleton): the step's heading
 * (which takes the focus when the step changes, see useStepHeading), a ticked agreement, the
 * notice box of rules, the step's problem and the row of Back / Continue. Words come as props.
 */

/** The step's heading: the focus moves here when the step changes. */
export function StepHeading({ ref, children }: { ref: Ref<HTMLHeadingElement>; children: ReactNode }) {
  return (
    <h2 id="wizard-heading" ref={ref} tabIndex={-1} className="text-xl font-semibold">
      {children}
    </h2>
  );
}

/** A step of a wizard: a card headed by the step's name. */
export function WizardStep({
  heading,
  title,
  children,
}: {
  heading: Ref<HTMLHeadingElement>;
  title: string;
  children: ReactNode;
}) {
  return (
    <section aria-labelledby="wizard-heading" className="card space-y-4">
      <StepHeading ref={heading}>{title}</StepHeading>
      {children}
    </section>
  );
}

/** The prompt to sign in or register that a step shows a visitor (spec §5). */
export function SignInBox(props: { t: T; href: string; className?: string }) {
  return (
    <SignInPrompt
      className={props.className ?? 'rounded-md border border-orange-300 bg-orange-50 p-4'}
      href={props.href}
      prompt={props.t('wizard.signInPrompt')}
      button={props.t('signin.button')}
    />
  );
}

/**
 * A box the user ticks (agreeing to terms, a category, "same as applicant") or a radio choice,
 * its label beside it.
 */
export function Choice(props: {
  checked: boolean;
  onChange: (checked: boolean) => void;
  children: ReactNode;
  type?: 'checkbox' | 'radio';
  name?: string;
  value?: string | number;
  describedBy?: string;
}) {
  return (
    <label className="flex items-start gap-2">
      <input
        type={props.type ?? 'checkbox'}
        name={props.name}
        value={props.value}
        className="mt-1 h-4 w-4"
        checked={props.checked}
        aria-describedby={props.describedBy}
        onChange={(e) => props.onChange(e.target.checked)}
      />
      <span>{props.children}</span>
    </label>
  );
}

/** The boxes a step asks the user to tick (terms, policy, disclosure), by the draft's field names. */
export function Agreements<N extends string>(props: {
  names: readonly N[];
  checked: Record<N, boolean>;
  onChange: (name: N, checked: boolean) => void;
  label: (name: N) => string;
}) {
  return props.names.map((name) => (
    <Choice key={name} checked={props.checked[name]} onChange={(on) => props.onChange(name, on)}>
      {props.label(name)}
    </Choice>
  ));
}

/** The box of rules or notices a step shows before the user agrees (items already translated). */
export function NoticeBox(props: { title: string; items: (string | false | undefined)[] }) {
  return (
    <div className="rounded-md border border-neutral-300 bg-neutral-50 p-4 text-sm">
      <h3 className="mb-2 font-semibold">{props.title}</h3>
      <ul className="list-disc space-y-1 pl-5">
        {props.items.filter(Boolean).map((item) => (
          <li key={item as string}>{item}</li>
        ))}
      </ul>
    </div>
  );
}

/** The step's own problem (not a field's), read out when it appears. */
export function StepProblem(props: { id: string; text: string | undefined }) {
  if (!props.text) return null;
  return (
    <p id={props.id} tabIndex={-1} role="alert" className="text-sm font-semibold text-red-700">
      {props.text}
    </p>
  );
}

/**
 * The form step's error summary beside its submit button, after a check that failed: how many
 * fields need attention (each shows its own message; the first has the focus). `text` says it.
 */
export function ErrorSummary(props: { errors: Record<string, string>; text: (count: number) => string }) {
  const count = Object.keys(props.errors).length;
  return (
    <p role="status" className="text-sm font-semibold text-red-700">
      {count > 0 ? props.text(count) : ''}
    </p>
  );
}

/** A note the user must not miss (amber). */
export function StepNote(props: { children: ReactNode; className?: string }) {
  return (
    <p
      role="note"
      className={`rounded-md border border-amber-500 bg-amber-50 px-3 py-2 text-sm text-amber-900 ${props.className ?? ''}`}
    >
      {props.children}
    </p>
  );
}

/**
 * The row under a step: Back (or another way out, as children) on the left, the way on at the
 * right (`next`, or a submit button as children).
 */
export function StepActions(props: {
  back?: { label: string; onClick: () => void };
  next?: { label: string; onClick: () => void; disabled?: boolean };
  children?: ReactNode;
}) {
  return (
    <div className="flex flex-wrap justify-between gap-3">
      {props.back && (
        <button type="button" className="btn-secondary" onClick={props.back.onClick}>
          {props.back.label}
        </button>
      )}
      {props.children}
      {props.next && (
        <button type="button" className="btn-primary" disabled={props.next.disabled} onClick={props.next.onClick}>
          {props.next.label}
        </button>
      )}
    </div>
  );
}
