import { PageHeader } from '@/admin/ui/controls';

export default function CommentModeration() {
  return <PageHeader title="Comments" />;
}
