import { PageHeader } from '@/admin/ui/controls';

export default function BlogManagement() {
  return <PageHeader title="Blog Management" />;
}
