/** The wizard's steps, with the current one marked for assistive technology. */
export function Steps({ steps, current, label }: { steps: string[]; current: number; label: string }) {
  return (
    <nav aria-label={label} className="mb-6">
      <ol className="flex flex-wrap gap-2 text-sm">
        {steps.map((step, i) => (
          <li
            key={step}
            aria-current={i === current ? 'step' : undefined}
            className={`flex items-center gap-2 rounded-full px-3 py-1 ${i === current ? 'bg-orange-700 font-semibold text-white' : i < current ? 'bg-orange-100 text-orange-900' : 'bg-neutral-100 text-neutral-700'}`}
          >
            <span aria-hidden="true">{i + 1}</span>
            {step}
          </li>
        ))}
      </ol>
    </nav>
  );
}
