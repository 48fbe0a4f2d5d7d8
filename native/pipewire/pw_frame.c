/* One frame of a PipeWire video stream, converted to RGBA.
 *
 * Everything here runs on the thread that calls nw_new, nw_run and
 * nw_free (the Go side locks its goroutine to it); only nw_cancel comes
 * from another thread, and it only signals the loop's event source, which
 * is what spa's event sources are for. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <pthread.h>
#include <unistd.h>

#include <pipewire/pipewire.h>
#include <spa/buffer/meta.h>
#include <spa/utils/result.h>
#include <spa/param/param.h>
#include <spa/param/video/format-utils.h>
#include <spa/pod/builder.h>

#include "pw_frame.h"

struct nw_capture {
	struct pw_main_loop *loop;
	struct spa_source *cancel;
	struct spa_source *timer;
	struct spa_source *nudge;
	struct pw_context *context;
	struct pw_core *core;
	struct spa_hook core_listener;
	struct pw_stream *stream;
	struct spa_hook stream_listener;
	struct spa_video_info_raw info;
	int have_format;
	nw_result *out;
	int done;
};

static pthread_once_t nw_once = PTHREAD_ONCE_INIT;

static void nw_init_once(void) { pw_init(NULL, NULL); }

/* finish records why the loop ends (the first reason wins) and stops it. */
static void finish(struct nw_capture *c, int status, const char *msg)
{
	if (c->done)
		return;
	c->done = 1;
	c->out->status = status;
	if (msg)
		snprintf(c->out->message, sizeof(c->out->message), "%s", msg);
	pw_main_loop_quit(c->loop);
}

static void on_cancel(void *data, uint64_t count)
{
	(void)count;
	finish(data, NW_CANCELLED, NULL);
}

static void on_timeout(void *data, uint64_t expirations)
{
	(void)expirations;
	finish(data, NW_TIMEOUT, NULL);
}

/* nudgeInterval is how long a streaming stream may stay without a frame
 * before it is paused and resumed. A producer that sends frames only on
 * damage (mutter's window streams) sends one as it starts streaming; when
 * that one is lost (it went out before this side's buffers were ready), a
 * still window sends no other. Resuming makes the producer start again
 * and send its first frame again. */
static const long nudge_interval_ms = 200;

static void arm_nudge(struct nw_capture *c)
{
	struct timespec value = { 0, nudge_interval_ms * 1000000L };
	pw_loop_update_timer(pw_main_loop_get_loop(c->loop), c->nudge, &value, NULL, false);
}

static void on_nudge(void *data, uint64_t expirations)
{
	struct nw_capture *c = data;
	(void)expirations;
	if (c->done || c->stream == NULL)
		return;
	c->out->nudges++;
	pw_stream_set_active(c->stream, false);
	pw_stream_set_active(c->stream, true);
	arm_nudge(c);
}

static void on_core_error(void *data, uint32_t id, int seq, int res, const char *message)
{
	struct nw_capture *c = data;
	char msg[200];
	(void)seq;
	/* Errors about other objects (a module, the stream's node) come back
	 * through the stream's state too; the core's own mean the connection. */
	if (id != PW_ID_CORE)
		return;
	snprintf(msg, sizeof(msg), "%s (%s)", message ? message : "core error", spa_strerror(res));
	finish(c, res == -EPIPE ? NW_CONNECT : NW_STREAM, msg);
}

static const struct pw_core_events core_events = {
	PW_VERSION_CORE_EVENTS,
	.error = on_core_error,
};

static void on_state_changed(void *data, enum pw_stream_state old, enum pw_stream_state state, const char *error)
{
	struct nw_capture *c = data;
	char msg[200];
	(void)old;
	if (state == PW_STREAM_STATE_STREAMING && !c->done)
		arm_nudge(c);
	if (state == PW_STREAM_STATE_ERROR) {
		snprintf(msg, sizeof(msg), "stream error: %s", error ? error : "unknown");
		finish(c, NW_STREAM, msg);
	}
}

/* is_converted says whether convert() knows the format's byte order. */
static int is_converted(uint32_t f)
{
	switch (f) {
	case SPA_VIDEO_FORMAT_BGRx: case SPA_VIDEO_FORMAT_BGRA:
	case SPA_VIDEO_FORMAT_RGBx: case SPA_VIDEO_FORMAT_RGBA:
	case SPA_VIDEO_FORMAT_xRGB: case SPA_VIDEO_FORMAT_ARGB:
	case SPA_VIDEO_FORMAT_xBGR: case SPA_VIDEO_FORMAT_ABGR:
		return 1;
	}
	return 0;
}

/* The buffers and metas asked for once the format is known: memory the
 * CPU can read (never DmaBuf), the region the producer filled (mutter's
 * window streams are monitor-sized with the window in a corner) and the
 * header that flags a corrupted frame. */
static void on_param_changed(void *data, uint32_t id, const struct spa_pod *param)
{
	struct nw_capture *c = data;
	uint8_t buf[1024];
	struct spa_pod_builder b = SPA_POD_BUILDER_INIT(buf, sizeof(buf));
	const struct spa_pod *params[3];
	uint32_t media_type, media_subtype;

	if (param == NULL || id != SPA_PARAM_Format)
		return;
	if (spa_format_parse(param, &media_type, &media_subtype) < 0 ||
	    media_type != SPA_MEDIA_TYPE_video || media_subtype != SPA_MEDIA_SUBTYPE_raw ||
	    spa_format_video_raw_parse(param, &c->info) < 0 || !is_converted(c->info.format)) {
		finish(c, NW_FORMAT, "the stream's format is not raw 32-bit RGB video");
		return;
	}
	c->have_format = 1;
	params[0] = spa_pod_builder_add_object(&b,
		SPA_TYPE_OBJECT_ParamBuffers, SPA_PARAM_Buffers,
		SPA_PARAM_BUFFERS_dataType, SPA_POD_CHOICE_FLAGS_Int((1 << SPA_DATA_MemFd) | (1 << SPA_DATA_MemPtr)));
	params[1] = spa_pod_builder_add_object(&b,
		SPA_TYPE_OBJECT_ParamMeta, SPA_PARAM_Meta,
		SPA_PARAM_META_type, SPA_POD_Id(SPA_META_VideoCrop),
		SPA_PARAM_META_size, SPA_POD_Int(sizeof(struct spa_meta_region)));
	params[2] = spa_pod_builder_add_object(&b,
		SPA_TYPE_OBJECT_ParamMeta, SPA_PARAM_Meta,
		SPA_PARAM_META_type, SPA_POD_Id(SPA_META_Header),
		SPA_PARAM_META_size, SPA_POD_Int(sizeof(struct spa_meta_header)));
	pw_stream_update_params(c->stream, params, 3);
}

/* convert copies the crop region of one frame into tightly packed RGBA.
 * The SPA names are byte orders: BGRx is B, G, R, x in memory. */
static void convert(const uint8_t *src, int stride, uint32_t format, int x0, int y0, int w, int h, uint8_t *dst)
{
	int r, g, bl, a;
	switch (format) {
	case SPA_VIDEO_FORMAT_RGBx: case SPA_VIDEO_FORMAT_RGBA: r = 0; g = 1; bl = 2; a = 3; break;
	case SPA_VIDEO_FORMAT_BGRx: case SPA_VIDEO_FORMAT_BGRA: r = 2; g = 1; bl = 0; a = 3; break;
	case SPA_VIDEO_FORMAT_xRGB: case SPA_VIDEO_FORMAT_ARGB: r = 1; g = 2; bl = 3; a = 0; break;
	default: r = 3; g = 2; bl = 1; a = 0; break; /* xBGR, ABGR */
	}
	int opaque = format == SPA_VIDEO_FORMAT_RGBx || format == SPA_VIDEO_FORMAT_BGRx ||
		     format == SPA_VIDEO_FORMAT_xRGB || format == SPA_VIDEO_FORMAT_xBGR;
	for (int y = 0; y < h; y++) {
		const uint8_t *s = src + (size_t)(y0 + y) * stride + (size_t)x0 * 4;
		uint8_t *d = dst + (size_t)y * w * 4;
		for (int x = 0; x < w; x++, s += 4, d += 4) {
			d[0] = s[r];
			d[1] = s[g];
			d[2] = s[bl];
			d[3] = opaque ? 255 : s[a];
		}
	}
}

/* take copies one buffer's frame into out; 0 when the buffer holds none
 * (empty, corrupted) and the loop should wait for the next. */
static int take(struct nw_capture *c, struct spa_buffer *buf)
{
	struct spa_data *d = &buf->datas[0];
	struct spa_meta_header *h;
	struct spa_meta_region *crop;
	nw_result *o = c->out;
	int w = c->info.size.width, ht = c->info.size.height;

	if (buf->n_datas < 1)
		return 0;
	if (d->type == SPA_DATA_DmaBuf) {
		finish(c, NW_UNSUPPORTED, "the producer sent a DmaBuf frame");
		return 1;
	}
	h = spa_buffer_find_meta_data(buf, SPA_META_Header, sizeof(*h));
	if (h && (h->flags & SPA_META_HEADER_FLAG_CORRUPTED))
		return 0;
	if (d->data == NULL || d->chunk == NULL || d->chunk->size == 0 ||
	    (d->chunk->flags & SPA_CHUNK_FLAG_CORRUPTED))
		return 0;
	int stride = d->chunk->stride > 0 ? d->chunk->stride : w * 4;
	uint32_t offset = d->chunk->offset % d->maxsize;
	if (w <= 0 || ht <= 0 || stride < w * 4 || (uint64_t)offset + (uint64_t)stride * (ht - 1) + (uint64_t)w * 4 > d->maxsize)
		return 0;
	o->width = w;
	o->height = ht;
	o->stride = stride;
	o->format = c->info.format;
	o->crop_x = 0; o->crop_y = 0; o->crop_w = w; o->crop_h = ht;
	crop = spa_buffer_find_meta_data(buf, SPA_META_VideoCrop, sizeof(*crop));
	if (crop && spa_meta_region_is_valid(crop)) {
		int x = crop->region.position.x, y = crop->region.position.y;
		int cw = crop->region.size.width, ch = crop->region.size.height;
		if (x >= 0 && y >= 0 && cw > 0 && ch > 0 && x + cw <= w && y + ch <= ht) {
			o->has_crop = 1;
			o->crop_x = x; o->crop_y = y; o->crop_w = cw; o->crop_h = ch;
		}
	}
	o->pixels = malloc((size_t)o->crop_w * o->crop_h * 4);
	if (o->pixels == NULL) {
		finish(c, NW_SETUP, "out of memory for the frame");
		return 1;
	}
	convert((const uint8_t *)d->data + offset, stride, o->format, o->crop_x, o->crop_y, o->crop_w, o->crop_h, o->pixels);
	finish(c, NW_OK, NULL);
	return 1;
}

static void on_process(void *data)
{
	struct nw_capture *c = data;
	struct pw_buffer *b;

	/* Only the newest queued frame matters. */
	while (!c->done && (b = pw_stream_dequeue_buffer(c->stream)) != NULL) {
		if (c->have_format)
			take(c, b->buffer);
		pw_stream_queue_buffer(c->stream, b);
	}
}

static const struct pw_stream_events stream_events = {
	PW_VERSION_STREAM_EVENTS,
	.state_changed = on_state_changed,
	.param_changed = on_param_changed,
	.process = on_process,
};

nw_capture *nw_new(void)
{
	struct nw_capture *c;

	pthread_once(&nw_once, nw_init_once);
	c = calloc(1, sizeof(*c));
	if (c == NULL)
		return NULL;
	c->loop = pw_main_loop_new(NULL);
	if (c->loop == NULL) {
		free(c);
		return NULL;
	}
	c->cancel = pw_loop_add_event(pw_main_loop_get_loop(c->loop), on_cancel, c);
	c->timer = pw_loop_add_timer(pw_main_loop_get_loop(c->loop), on_timeout, c);
	c->nudge = pw_loop_add_timer(pw_main_loop_get_loop(c->loop), on_nudge, c);
	if (c->cancel == NULL || c->timer == NULL || c->nudge == NULL) {
		pw_main_loop_destroy(c->loop);
		free(c);
		return NULL;
	}
	return c;
}

/* enum_formats is what the stream accepts: raw video in any 32-bit RGB
 * order, any size, any rate. No modifier is offered, so the producer
 * keeps to memory buffers (mutter offers DmaBuf only with one). */
static const struct spa_pod *enum_formats(struct spa_pod_builder *b)
{
	return spa_pod_builder_add_object(b,
		SPA_TYPE_OBJECT_Format, SPA_PARAM_EnumFormat,
		SPA_FORMAT_mediaType, SPA_POD_Id(SPA_MEDIA_TYPE_video),
		SPA_FORMAT_mediaSubtype, SPA_POD_Id(SPA_MEDIA_SUBTYPE_raw),
		SPA_FORMAT_VIDEO_format, SPA_POD_CHOICE_ENUM_Id(9,
			SPA_VIDEO_FORMAT_BGRx,
			SPA_VIDEO_FORMAT_BGRx, SPA_VIDEO_FORMAT_BGRA,
			SPA_VIDEO_FORMAT_RGBx, SPA_VIDEO_FORMAT_RGBA,
			SPA_VIDEO_FORMAT_xRGB, SPA_VIDEO_FORMAT_ARGB,
			SPA_VIDEO_FORMAT_xBGR, SPA_VIDEO_FORMAT_ABGR),
		SPA_FORMAT_VIDEO_size, SPA_POD_CHOICE_RANGE_Rectangle(
			&SPA_RECTANGLE(1280, 720), &SPA_RECTANGLE(1, 1), &SPA_RECTANGLE(16384, 16384)),
		SPA_FORMAT_VIDEO_framerate, SPA_POD_CHOICE_RANGE_Fraction(
			&SPA_FRACTION(0, 1), &SPA_FRACTION(0, 1), &SPA_FRACTION(1000, 1)));
}

void nw_run(nw_capture *c, int fd, uint32_t node_id, int timeout_ms, nw_result *out)
{
	uint8_t buf[1024];
	struct spa_pod_builder b = SPA_POD_BUILDER_INIT(buf, sizeof(buf));
	const struct spa_pod *params[1];
	struct timespec value;
	char msg[200];

	memset(out, 0, sizeof(*out));
	c->out = out;
	c->done = 0;
	c->context = pw_context_new(pw_main_loop_get_loop(c->loop), NULL, 0);
	if (c->context == NULL) {
		close(fd);
		finish(c, NW_SETUP, "pw_context_new failed");
		return;
	}
	c->core = pw_context_connect_fd(c->context, fd, NULL, 0);
	if (c->core == NULL) {
		snprintf(msg, sizeof(msg), "connect: %s", strerror(errno));
		finish(c, NW_CONNECT, msg);
		goto teardown;
	}
	pw_core_add_listener(c->core, &c->core_listener, &core_events, c);
	c->stream = pw_stream_new(c->core, "nish-driver capture",
		pw_properties_new(PW_KEY_MEDIA_TYPE, "Video",
				  PW_KEY_MEDIA_CATEGORY, "Capture",
				  PW_KEY_MEDIA_ROLE, "Screen", NULL));
	if (c->stream == NULL) {
		finish(c, NW_SETUP, "pw_stream_new failed");
		goto teardown;
	}
	pw_stream_add_listener(c->stream, &c->stream_listener, &stream_events, c);
	params[0] = enum_formats(&b);
	if (pw_stream_connect(c->stream, PW_DIRECTION_INPUT, node_id,
			      PW_STREAM_FLAG_AUTOCONNECT | PW_STREAM_FLAG_MAP_BUFFERS | PW_STREAM_FLAG_DONT_RECONNECT,
			      params, 1) < 0) {
		finish(c, NW_STREAM, "pw_stream_connect failed");
		goto teardown;
	}
	value.tv_sec = timeout_ms / 1000;
	value.tv_nsec = (long)(timeout_ms % 1000) * 1000000L;
	pw_loop_update_timer(pw_main_loop_get_loop(c->loop), c->timer, &value, NULL, false);
	pw_main_loop_run(c->loop);

teardown:
	if (c->stream) {
		spa_hook_remove(&c->stream_listener);
		pw_stream_disconnect(c->stream);
		pw_stream_destroy(c->stream);
		c->stream = NULL;
	}
	if (c->core) {
		spa_hook_remove(&c->core_listener);
		pw_core_disconnect(c->core);
		c->core = NULL;
	}
	pw_context_destroy(c->context);
	c->context = NULL;
	c->out = NULL;
}

void nw_cancel(nw_capture *c)
{
	pw_loop_signal_event(pw_main_loop_get_loop(c->loop), c->cancel);
}

void nw_free(nw_capture *c, nw_result *res)
{
	if (res) {
		free(res->pixels);
		res->pixels = NULL;
	}
	if (c == NULL)
		return;
	pw_loop_destroy_source(pw_main_loop_get_loop(c->loop), c->cancel);
	pw_loop_destroy_source(pw_main_loop_get_loop(c->loop), c->timer);
	pw_loop_destroy_source(pw_main_loop_get_loop(c->loop), c->nudge);
	pw_main_loop_destroy(c->loop);
	free(c);
}
