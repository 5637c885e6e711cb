CREATE TABLE `article_authors` (
	`article_id` char(36) NOT NULL,
	`author_id` char(36) NOT NULL,
	`position` int NOT NULL,
	CONSTRAINT `article_authors_pk` PRIMARY KEY(`article_id`,`author_id`)
);
--> statement-breakpoint
CREATE TABLE `articles` (
	`id` char(36) NOT NULL,
	`title` varchar(255) NOT NULL,
	`body` longtext NOT NULL,
	`format` varchar(16) NOT NULL,
	`status` varchar(16) NOT NULL,
	`site_id` char(36),
	`created_at` datetime(3) NOT NULL,
	`updated_at` datetime(3) NOT NULL,
	`published_at` datetime(3),
	CONSTRAINT `articles_id` PRIMARY KEY(`id`)
);
--> statement-breakpoint
CREATE TABLE `authors` (
	`id` char(36) NOT NULL,
	`name` varchar(255) NOT NULL,
	`slug` varchar(255) NOT NULL,
	`bio` text,
	`avatar_url` varchar(2048),
	`created_at` datetime(3) NOT NULL,
	`updated_at` datetime(3) NOT NULL,
	CONSTRAINT `authors_id` PRIMARY KEY(`id`),
	CONSTRAINT `authors_slug_unique` UNIQUE(`slug`)
);
--> statement-breakpoint
CREATE TABLE `images` (
	`id` char(36) NOT NULL,
	`article_id` char(36) NOT NULL,
	`filename` varchar(255) NOT NULL,
	`content_type` varchar(64) NOT NULL,
	`bytes` int NOT NULL,
	`width` int NOT NULL,
	`height` int NOT NULL,
	`sha256` char(64) NOT NULL,
	`created_at` datetime(3) NOT NULL,
	CONSTRAINT `images_id` PRIMARY KEY(`id`),
	CONSTRAINT `images_filename_unique` UNIQUE(`filename`)
);
--> statement-breakpoint
CREATE TABLE `sites` (
	`id` char(36) NOT NULL,
	`name` varchar(255) NOT NULL,
	`base_url` varchar(2048) NOT NULL,
	`description` text,
	`created_at` datetime(3) NOT NULL,
	`updated_at` datetime(3) NOT NULL,
	CONSTRAINT `sites_id` PRIMARY KEY(`id`)
);
--> statement-breakpoint
CREATE TABLE `users` (
	`id` char(36) NOT NULL,
	`email` varchar(254) NOT NULL,
	`display_name` varchar(255),
	`role` varchar(16) NOT NULL,
	`verified` boolean NOT NULL DEFAULT false,
	`password_hash` varchar(512) NOT NULL,
	`token_version` int NOT NULL DEFAULT 0,
	`owner_lock` int,
	`verification_code_hash` varchar(128),
	`verification_expires_at` datetime(3),
	`reset_code_hash` varchar(128),
	`reset_expires_at` datetime(3),
	`created_at` datetime(3) NOT NULL,
	`updated_at` datetime(3) NOT NULL,
	CONSTRAINT `users_id` PRIMARY KEY(`id`),
	CONSTRAINT `users_email_unique` UNIQUE(`email`),
	CONSTRAINT `users_owner_lock_unique` UNIQUE(`owner_lock`),
	CONSTRAINT `users_verification_code_hash_unique` UNIQUE(`verification_code_hash`),
	CONSTRAINT `users_reset_code_hash_unique` UNIQUE(`reset_code_hash`),
	CONSTRAINT `users_owner_lock_check` CHECK((role = 'owner' and owner_lock = 1) or (role <> 'owner' and owner_lock is null))
);
--> statement-breakpoint
ALTER TABLE `article_authors` ADD CONSTRAINT `article_authors_article_id_articles_id_fk` FOREIGN KEY (`article_id`) REFERENCES `articles`(`id`) ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE `article_authors` ADD CONSTRAINT `article_authors_author_id_authors_id_fk` FOREIGN KEY (`author_id`) REFERENCES `authors`(`id`) ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE `articles` ADD CONSTRAINT `articles_site_id_sites_id_fk` FOREIGN KEY (`site_id`) REFERENCES `sites`(`id`) ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE `images` ADD CONSTRAINT `images_article_id_articles_id_fk` FOREIGN KEY (`article_id`) REFERENCES `articles`(`id`) ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX `article_authors_author_id_idx` ON `article_authors` (`author_id`);--> statement-breakpoint
CREATE INDEX `articles_status_id_idx` ON `articles` (`status`,`id`);--> statement-breakpoint
CREATE INDEX `articles_site_id_id_idx` ON `articles` (`site_id`,`id`);--> statement-breakpoint
CREATE INDEX `images_sha256_idx` ON `images` (`sha256`);--> statement-breakpoint
CREATE INDEX `images_article_id_id_idx` ON `images` (`article_id`,`id`);