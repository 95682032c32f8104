// A large calendar for the tests of reading the owner's calendar: ICS text of `count` one-off
// meetings of 15 minutes, one every 20 minutes from `first`, each with a line of agenda (some 300
// bytes a meeting), and any other events given as ICS lines.
/** An instant in ICS's UTC form (20260302T140000Z). */
export const icsStamp = (ms: number) => `${new Date(ms).toISOString().replace(/[-:]/g, '').slice(0, 15)}Z`;

export function manyMeetings(first: number, count: number, more: string[] = []): string {
  const lines = ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//Test//Owner//EN'];
  for (let i = 0; i < count; i++) {
    const start = first + i * 20 * 60_000;
    lines.push(
      'BEGIN:VEVENT',
      `UID:meeting-${i}@test`,
      'DTSTAMP:20250101T000000Z',
      `DTSTART:${icsStamp(start)}`,
      `DTEND:${icsStamp(start + 15 * 60_000)}`,
      `SUMMARY:Meeting ${i}`,
      `DESCRIPTION:${'Agenda. '.repeat(20)}`,
      'END:VEVENT',
    );
  }
  return [...lines, ...more, 'END:VCALENDAR'].join('\r\n');
}
