CREATE TABLE `article_drafts` (
	`article_id` text PRIMARY KEY NOT NULL,
	`fields` text NOT NULL,
	`version` integer NOT NULL,
	`base_version` integer NOT NULL,
	`updated_at` integer NOT NULL,
	`publish_at` integer,
	FOREIGN KEY (`article_id`) REFERENCES `articles`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `article_drafts_publish_at_idx` ON `article_drafts` (`publish_at`);--> statement-breakpoint
CREATE TABLE `article_revisions` (
	`id` text PRIMARY KEY NOT NULL,
	`article_id` text NOT NULL,
	`created_at` integer NOT NULL,
	`actor_type` text NOT NULL,
	`actor_id` text,
	`version` integer NOT NULL,
	`title` text NOT NULL,
	`fields` text NOT NULL,
	`bytes` integer NOT NULL,
	FOREIGN KEY (`article_id`) REFERENCES `articles`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `article_revisions_article_id_id_idx` ON `article_revisions` (`article_id`,`id`);--> statement-breakpoint
ALTER TABLE `sites` ADD `preview_url` text;