// One day's free times as radio buttons named `start`, grouped under the day, so a time is read
// with its day. Used by the booking form (an island) and the booking's own page (static HTML).
interface Props {
  day: string;
  times: { value: string; label: string }[];
  /** The value picked before (after a refused form post). */
  chosen?: string;
  /** The id of the message explaining why the choice was refused. */
  errorId?: string | undefined;
}

export function TimeChoices({ day, times, chosen, errorId }: Props) {
  return (
    <fieldset>
      <legend className="font-medium text-ink">{day}</legend>
      <div className="mt-2 flex flex-wrap gap-2">
        {times.map((t) => (
          <label key={t.value} className="cursor-pointer">
            <input
              type="radio"
              name="start"
              value={t.value}
              defaultChecked={t.value === chosen}
              className="peer sr-only"
              required
              {...(errorId ? { 'aria-invalid': true, 'aria-describedby': errorId } : {})}
            />
            <span className="time-choice">{t.label}</span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}
