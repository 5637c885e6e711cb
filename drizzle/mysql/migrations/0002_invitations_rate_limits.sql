CREATE TABLE `invitations` (
	`id` char(36) NOT NULL,
	`email` varchar(254) NOT NULL,
	`role` varchar(16) NOT NULL,
	`code_hash` varchar(128) NOT NULL,
	`expires_at` datetime(3) NOT NULL,
	`created_at` datetime(3) NOT NULL,
	`invited_by` char(36),
	CONSTRAINT `invitations_id` PRIMARY KEY(`id`),
	CONSTRAINT `invitations_email_unique` UNIQUE(`email`),
	CONSTRAINT `invitations_code_hash_unique` UNIQUE(`code_hash`)
);
--> statement-breakpoint
CREATE TABLE `rate_limits` (
	`key` varchar(200) NOT NULL,
	`tat_ms` bigint NOT NULL,
	CONSTRAINT `rate_limits_key` PRIMARY KEY(`key`)
);
--> statement-breakpoint
ALTER TABLE `invitations` ADD CONSTRAINT `invitations_invited_by_users_id_fk` FOREIGN KEY (`invited_by`) REFERENCES `users`(`id`) ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX `invitations_invited_by_idx` ON `invitations` (`invited_by`);--> statement-breakpoint
CREATE INDEX `article_authors_article_id_position_idx` ON `article_authors` (`article_id`,`position`);