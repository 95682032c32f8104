// The spam honeypot of the public forms: a 'Website' field people never see (off-screen and
// hidden from assistive technology); bots that fill every input give themselves away.
interface Props {
  id: string;
  value: string;
  onChange: (value: string) => void;
}

export function Honeypot({ id, value, onChange }: Props) {
  return (
    <div aria-hidden="true" className="absolute -left-[9999px] h-px w-px overflow-hidden">
      <label htmlFor={id}>Website</label>
      <input id={id} type="text" tabIndex={-1} autoComplete="off" value={value} onChange={(e) => onChange(e.target.value)} />
    </div>
  );
}
