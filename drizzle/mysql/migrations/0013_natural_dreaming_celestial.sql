CREATE TABLE `article_drafts` (
	`article_id` char(36) NOT NULL,
	`fields` longtext NOT NULL,
	`version` int NOT NULL,
	`base_version` int NOT NULL,
	`updated_at` datetime(3) NOT NULL,
	`publish_at` datetime(3),
	CONSTRAINT `article_drafts_article_id` PRIMARY KEY(`article_id`)
);
--> statement-breakpoint
CREATE TABLE `article_revisions` (
	`id` char(36) NOT NULL,
	`article_id` char(36) NOT NULL,
	`created_at` datetime(3) NOT NULL,
	`actor_type` varchar(16) NOT NULL,
	`actor_id` char(36),
	`version` int NOT NULL,
	`title` varchar(255) NOT NULL,
	`fields` longtext NOT NULL,
	`bytes` int NOT NULL,
	CONSTRAINT `article_revisions_id` PRIMARY KEY(`id`)
);
--> statement-breakpoint
ALTER TABLE `sites` ADD `preview_url` varchar(2048);--> statement-breakpoint
ALTER TABLE `article_drafts` ADD CONSTRAINT `article_drafts_article_id_articles_id_fk` FOREIGN KEY (`article_id`) REFERENCES `articles`(`id`) ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE `article_revisions` ADD CONSTRAINT `article_revisions_article_id_articles_id_fk` FOREIGN KEY (`article_id`) REFERENCES `articles`(`id`) ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX `article_drafts_publish_at_idx` ON `article_drafts` (`publish_at`);--> statement-breakpoint
CREATE INDEX `article_revisions_article_id_id_idx` ON `article_revisions` (`article_id`,`id`);