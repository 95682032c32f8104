ALTER TABLE `newsletter_subscribers` ADD `kit_pending_since` integer;--> statement-breakpoint
ALTER TABLE `newsletter_subscribers` ADD `kit_checked_at` integer;