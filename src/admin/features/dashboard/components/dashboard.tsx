import { PageHeader } from '@/admin/ui/controls';

export default function Dashboard() {
  return <PageHeader title="Dashboard" />;
}
