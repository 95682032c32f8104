import { PageHeader } from '@/admin/ui/controls';

export default function PodcastManagement() {
  return <PageHeader title="Podcast Management" />;
}
