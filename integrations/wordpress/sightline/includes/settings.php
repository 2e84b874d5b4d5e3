<?php
/**
 * Settings → Sightline: the service's address, the destination's signing secret, the site id and the tracking-tag
 * switch. Saved through options.php, which checks the nonce settings_fields() prints and the manage_options capability.
 *
 * @package Sightline
 */

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * The service's public URL without a trailing slash, or '' when not set.
 *
 * @return string
 */
function sightline_address() {
	return untrailingslashit( (string) get_option( 'sightline_address', '' ) );
}

/**
 * Keeps only an http or https URL.
 *
 * @param mixed $value The submitted address.
 * @return string
 */
function sightline_sanitize_address( $value ) {
	$url = esc_url_raw( trim( (string) $value ), array( 'http', 'https' ) );
	return untrailingslashit( $url );
}

/**
 * An empty field keeps the saved secret: the page never shows it, so an unchanged form must not erase it. Only
 * printable ASCII is kept (secrets are base64 text); sanitize_text_field would also drop anything like %2B.
 *
 * @param mixed $value The submitted secret.
 * @return string
 */
function sightline_sanitize_secret( $value ) {
	$secret = (string) preg_replace( '/[^\x21-\x7E]/', '', (string) $value );
	if ( '' === $secret ) {
		return (string) get_option( 'sightline_secret', '' );
	}
	return $secret;
}

/**
 * Site ids are letters, digits, underscores and hyphens.
 *
 * @param mixed $value The submitted site id.
 * @return string
 */
function sightline_sanitize_site_id( $value ) {
	return (string) preg_replace( '/[^A-Za-z0-9_-]/', '', (string) $value );
}

/**
 * The switch is stored as '1' or '0'.
 *
 * @param mixed $value The submitted checkbox value.
 * @return string
 */
function sightline_sanitize_switch( $value ) {
	return '1' === (string) $value ? '1' : '0';
}

/**
 * Registers the settings and their fields.
 */
function sightline_register_settings() {
	$settings = array(
		'sightline_address'      => 'sightline_sanitize_address',
		'sightline_secret'       => 'sightline_sanitize_secret',
		'sightline_site_id'      => 'sightline_sanitize_site_id',
		'sightline_tracking_tag' => 'sightline_sanitize_switch',
	);
	foreach ( $settings as $name => $sanitize ) {
		register_setting(
			'sightline',
			$name,
			array(
				'type'              => 'string',
				'sanitize_callback' => $sanitize,
				'show_in_rest'      => false,
			)
		);
	}

	add_settings_section( 'sightline_main', __( 'Connection', 'sightline' ), '__return_false', 'sightline' );
	add_settings_field( 'sightline_address', __( 'Sightline address', 'sightline' ), 'sightline_field_address', 'sightline', 'sightline_main', array( 'label_for' => 'sightline_address' ) );
	add_settings_field( 'sightline_secret', __( 'Signing secret', 'sightline' ), 'sightline_field_secret', 'sightline', 'sightline_main', array( 'label_for' => 'sightline_secret' ) );
	add_settings_field( 'sightline_site_id', __( 'Site id', 'sightline' ), 'sightline_field_site_id', 'sightline', 'sightline_main', array( 'label_for' => 'sightline_site_id' ) );
	add_settings_field( 'sightline_tracking_tag', __( 'Visitor counter', 'sightline' ), 'sightline_field_tracking_tag', 'sightline', 'sightline_main', array( 'label_for' => 'sightline_tracking_tag' ) );
}
add_action( 'admin_init', 'sightline_register_settings' );

/**
 * The address field.
 */
function sightline_field_address() {
	printf(
		'<input type="url" class="regular-text" id="sightline_address" name="sightline_address" value="%s" placeholder="https://sightline.example.com" /><p class="description">%s</p>',
		esc_attr( (string) get_option( 'sightline_address', '' ) ),
		esc_html__( "Your Sightline service's public URL.", 'sightline' )
	);
}

/**
 * The secret field: never printed back, only its last four characters, so the page cannot leak it.
 */
function sightline_field_secret() {
	$secret = (string) get_option( 'sightline_secret', '' );
	$hint   = '' === $secret
		? __( 'Not set', 'sightline' )
		/* translators: %s: the last four characters of the saved secret. */
		: sprintf( __( 'Saved (ends in …%s); leave empty to keep it', 'sightline' ), substr( $secret, -4 ) );
	printf(
		'<input type="password" class="regular-text" id="sightline_secret" name="sightline_secret" value="" autocomplete="off" placeholder="%s" /><p class="description">%s</p>',
		esc_attr( '' === $secret ? '' : '••••••••' ),
		esc_html( $hint . '. ' . __( "The signing secret of this site's Sightline destination.", 'sightline' ) )
	);
}

/**
 * The site id field.
 */
function sightline_field_site_id() {
	printf(
		'<input type="text" class="regular-text" id="sightline_site_id" name="sightline_site_id" value="%s" /><p class="description">%s</p>',
		esc_attr( (string) get_option( 'sightline_site_id', '' ) ),
		esc_html__( "The site id in your Sightline analytics settings (the tracking tag's data-site).", 'sightline' )
	);
}

/**
 * The tracking-tag switch.
 */
function sightline_field_tracking_tag() {
	printf(
		'<label><input type="checkbox" id="sightline_tracking_tag" name="sightline_tracking_tag" value="1" %s /> %s</label>',
		checked( '1', (string) get_option( 'sightline_tracking_tag', '0' ), false ),
		esc_html__( "Add Sightline's visitor counter to every page", 'sightline' )
	);
}

/**
 * Adds Settings → Sightline for administrators.
 */
function sightline_add_settings_page() {
	add_options_page( __( 'Sightline', 'sightline' ), __( 'Sightline', 'sightline' ), 'manage_options', 'sightline', 'sightline_render_settings_page' );
}
add_action( 'admin_menu', 'sightline_add_settings_page' );

/**
 * The settings page.
 */
function sightline_render_settings_page() {
	if ( ! current_user_can( 'manage_options' ) ) {
		return;
	}
	?>
	<div class="wrap">
		<h1><?php echo esc_html( get_admin_page_title() ); ?></h1>
		<form action="<?php echo esc_url( admin_url( 'options.php' ) ); ?>" method="post">
			<?php
			settings_fields( 'sightline' );
			do_settings_sections( 'sightline' );
			submit_button();
			?>
		</form>
	</div>
	<?php
}
