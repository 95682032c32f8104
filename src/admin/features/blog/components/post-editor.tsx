import { PageHeader } from '@/admin/ui/controls';

export default function PostEditor() {
  return <PageHeader title="Create New Post" />;
}
