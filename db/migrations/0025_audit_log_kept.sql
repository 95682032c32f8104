-- Audit rows cannot be changed, and cannot be deleted before they are two years old.
CREATE TRIGGER `audit_log_no_update` BEFORE UPDATE ON `audit_log`
BEGIN
	SELECT RAISE(ABORT, 'audit rows cannot be changed');
END;
--> statement-breakpoint
CREATE TRIGGER `audit_log_kept_two_years` BEFORE DELETE ON `audit_log`
WHEN old.`ts` > (cast(unixepoch('now', '-730 days') * 1000 as integer))
BEGIN
	SELECT RAISE(ABORT, 'audit rows are kept two years');
END;
