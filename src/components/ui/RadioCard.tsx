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
