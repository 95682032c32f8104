// Where a post or an episode stands: Published, Draft, or Scheduled with its time in the
// site's time zone.
import { siteTimeZone } from '#admin/lib/site-time.ts';
import { formatInZone } from '#shared/time.ts';
import { Badge } from './controls.tsx';

export function PublishStatus({ isPublished, scheduledAt }: { isPublished: boolean; scheduledAt: string | null }) {
  const zone = siteTimeZone();
  if (scheduledAt) return <Badge tone="blue">Scheduled · {formatInZone(new Date(scheduledAt), zone)}</Badge>;
  return <Badge tone={isPublished ? 'green' : 'amber'}>{isPublished ? 'Published' : 'Draft'}</Badge>;
}
