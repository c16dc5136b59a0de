package io.github.flashstock.inventory.console;

import java.io.StringReader;
import java.io.StringWriter;
import java.util.List;
import org.yaml.snakeyaml.DumperOptions;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.Tag;
import org.yaml.snakeyaml.representer.Representer;

/**
 * Sets one value in a dataId's YAML and leaves everything else as the operator wrote it, comments included: the
 * document is edited as SnakeYAML's node tree (with its comments), not as a map, so what the console publishes is
 * the operator's file with one line changed or added.
 * <p>
 * A SKU's key is written in Spring Boot's bracket notation, quoted ({@code "[hot_1]": 4}): without the brackets,
 * binding a map key drops characters that a SKU id may hold ({@code _}, a leading {@code -}) and reads {@code .} as a
 * step into a nested map, so the setting would land on another SKU, or none. An entry the operator wrote without
 * brackets for the same id is replaced by the bracketed one, so the id never has two values.
 */
final class DataIdEdit {

    /** Where the per-SKU segment counts live ({@code inventory.segments.skus}). */
    static final List<String> SEGMENTS = List.of("inventory", "segments", "skus");
    /** Where the per-SKU allotments live ({@code inventory.mysql-store.allotment.skus}). */
    static final List<String> ALLOTMENTS = List.of("inventory", "mysql-store", "allotment", "skus");

    private DataIdEdit() {
    }

    /**
     * The document with {@code path.key} set to {@code value}: a whole number is written as one, anything else as a
     * quoted string. Mappings on the way that are missing are added; an empty flow mapping ({@code {}}) becomes a
     * block one.
     *
     * @throws IllegalArgumentException when the document is not a mapping, or something on the path is not one
     */
    static String set(String document, List<String> path, String key, String value) {
        Yaml yaml = yaml();
        Node root = document == null || document.isBlank() ? null : yaml.compose(new StringReader(document));
        if (root == null) {
            root = new MappingNode(Tag.MAP, new java.util.ArrayList<>(), DumperOptions.FlowStyle.BLOCK);
        }
        if (!(root instanceof MappingNode mapping)) {
            throw new IllegalArgumentException("the dataId is not a YAML mapping");
        }
        MappingNode at = mapping;
        for (String step : path) {
            at = child(at, step);
        }
        at.setFlowStyle(DumperOptions.FlowStyle.BLOCK);
        boolean number = value.matches("[0-9]{1,18}");
        ScalarNode scalar = new ScalarNode(number ? Tag.INT : Tag.STR, value, null, null,
                number ? DumperOptions.ScalarStyle.PLAIN : DumperOptions.ScalarStyle.DOUBLE_QUOTED);
        String bracketed = "[" + key + "]";
        ScalarNode keyNode = new ScalarNode(Tag.STR, bracketed, null, null, DumperOptions.ScalarStyle.DOUBLE_QUOTED);
        List<NodeTuple> entries = at.getValue();
        int found = -1;
        for (int i = 0; i < entries.size(); i++) {
            String existing = text(entries.get(i).getKeyNode());
            if (key.equals(existing) || bracketed.equals(existing)) {
                if (found < 0) {
                    found = i;
                    entries.set(i, new NodeTuple(keyNode, scalar));
                } else {
                    entries.remove(i--);
                }
            }
        }
        if (found < 0) {
            entries.add(new NodeTuple(keyNode, scalar));
        }
        return write(yaml, root);
    }

    private static MappingNode child(MappingNode parent, String name) {
        for (NodeTuple t : parent.getValue()) {
            if (name.equals(text(t.getKeyNode()))) {
                if (t.getValueNode() instanceof MappingNode m) {
                    return m;
                }
                if (t.getValueNode() instanceof ScalarNode s && s.getValue().isEmpty()) {
                    MappingNode m = new MappingNode(Tag.MAP, new java.util.ArrayList<>(),
                            DumperOptions.FlowStyle.BLOCK);
                    parent.getValue().set(parent.getValue().indexOf(t), new NodeTuple(t.getKeyNode(), m));
                    return m;
                }
                throw new IllegalArgumentException(name + " in the dataId is not a mapping");
            }
        }
        MappingNode m = new MappingNode(Tag.MAP, new java.util.ArrayList<>(), DumperOptions.FlowStyle.BLOCK);
        parent.getValue().add(new NodeTuple(plain(name), m));
        return m;
    }

    private static ScalarNode plain(String text) {
        return new ScalarNode(Tag.STR, text, null, null, DumperOptions.ScalarStyle.PLAIN);
    }

    private static String text(Node node) {
        return node instanceof ScalarNode s ? s.getValue() : null;
    }

    private static String write(Yaml yaml, Node root) {
        StringWriter out = new StringWriter();
        yaml.serialize(root, out);
        return out.toString();
    }

    private static Yaml yaml() {
        LoaderOptions load = new LoaderOptions();
        load.setProcessComments(true);
        DumperOptions dump = new DumperOptions();
        dump.setProcessComments(true);
        dump.setDefaultFlowStyle(DumperOptions.FlowStyle.BLOCK);
        dump.setIndent(2);
        dump.setWidth(160);
        dump.setSplitLines(false);
        return new Yaml(new SafeConstructor(load), new Representer(dump), dump, load);
    }
}
