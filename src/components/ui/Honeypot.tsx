// The spam honeypot of the public forms: a 'Website' field people never see (off-screen and
// hidden from assistive technology); bots that fill every input give themselves away. It is
// posted with the form, with or without JavaScript.
export function Honeypot({ id }: { id: string }) {
  return (
    <div aria-hidden="true" className="absolute -left-[9999px] h-px w-px overflow-hidden">
      <label htmlFor={id}>Website</label>
      <input id={id} name="website" type="text" tabIndex={-1} autoComplete="off" defaultValue="" />
    </div>
  );
}
