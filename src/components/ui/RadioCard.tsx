/** A radio button in a bordered box that shows the choice (payment type, invoice kind). */
export function RadioCard(props: {
  name: string;
  value: string;
  checked: boolean;
  onChange: () => void;
  label: string;
}) {
  return (
    <label
      className={`flex cursor-pointer items-center gap-2 rounded-md border px-3 py-2 ${props.checked ? 'border-orange-700 bg-orange-50' : 'border-neutral-300'}`}
    >
      <input
        type="radio"
        name={props.name}
        value={props.value}
        checked={props.checked}
        onChange={props.onChange}
        className="h-4 w-4"
      />
      <span>{props.label}</span>
    </label>
  );
}

/** One value of `values` to choose, each a RadioCard, two to a row from the small screen up. */
export function RadioCards<V extends string>(props: {
  name: string;
  values: readonly V[];
  chosen: V | undefined;
  onChange: (value: V) => void;
  label: (value: V) => string;
}) {
  return (
    <div className="grid gap-2 sm:grid-cols-2">
      {props.values.map((value) => (
        <RadioCard
          key={value}
          name={props.name}
          value={value}
          checked={props.chosen === value}
          onChange={() => props.onChange(value)}
          label={props.label(value)}
        />
      ))}
    </div>
  );
}
