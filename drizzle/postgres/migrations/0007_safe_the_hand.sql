ALTER TABLE "articles" ADD COLUMN "version" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "images" ADD COLUMN "original_name" text;--> statement-breakpoint
ALTER TABLE "images" ADD COLUMN "alt" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "images" ADD COLUMN "caption" text DEFAULT '' NOT NULL;