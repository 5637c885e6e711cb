CREATE TABLE "article_drafts" (
	"article_id" uuid PRIMARY KEY NOT NULL,
	"fields" text NOT NULL,
	"version" integer NOT NULL,
	"base_version" integer NOT NULL,
	"updated_at" timestamp (3) with time zone NOT NULL,
	"publish_at" timestamp (3) with time zone
);
--> statement-breakpoint
CREATE TABLE "article_revisions" (
	"id" uuid PRIMARY KEY NOT NULL,
	"article_id" uuid NOT NULL,
	"created_at" timestamp (3) with time zone NOT NULL,
	"actor_type" text NOT NULL,
	"actor_id" uuid,
	"version" integer NOT NULL,
	"title" text NOT NULL,
	"fields" text NOT NULL,
	"bytes" integer NOT NULL
);
--> statement-breakpoint
ALTER TABLE "sites" ADD COLUMN "preview_url" text;--> statement-breakpoint
ALTER TABLE "article_drafts" ADD CONSTRAINT "article_drafts_article_id_articles_id_fk" FOREIGN KEY ("article_id") REFERENCES "public"."articles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "article_revisions" ADD CONSTRAINT "article_revisions_article_id_articles_id_fk" FOREIGN KEY ("article_id") REFERENCES "public"."articles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "article_drafts_publish_at_idx" ON "article_drafts" USING btree ("publish_at");--> statement-breakpoint
CREATE INDEX "article_revisions_article_id_id_idx" ON "article_revisions" USING btree ("article_id","id");